"""The built-in papers' symbolic claims: one package per paper, SymPy only (never torch).

Each paper package registers its metadata (``verify.paper``) and lists its claim modules in
``__claims__``; its shared model is a public ``model`` module. Numeric claims and the
papers' torch constructions live in the package ``numerics``, which may import from here.
"""
