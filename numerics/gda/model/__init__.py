"""The torch constructions of "Gradient Dynamics of Attention" (key ``gda``): no claims here.

The claim modules of ``numerics/gda`` build on these: :mod:`.attention_head` (the head of eqs.
(1)-(9) and its closed-form gradients), :mod:`.blocked` (the same gradients by query blocks),
:mod:`.dynamics` (views F and P: first-order and finite steps), :mod:`.instances` (random
heads), :mod:`.onestep` (the one-step sign harness), :mod:`.toy` (the toy training of Sec. 7.1),
:mod:`.sticky` (the sticky-chain training of Sec. 7.2) and :mod:`.routing` (Def. 9.1 and the
mechanisms of Sec. 9). They import no claim module.
"""
