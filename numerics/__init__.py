"""Claims, one module per paper (see DESIGN.md section 2)."""
