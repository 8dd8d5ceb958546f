"""One Markdown table of the benchmark summaries (ondemandsummary.py,
pmisummary.py): rows by key, columns by value, cells from a function."""


def grid(emit, key_heads, keys, col_heads, cols, cell, numeric=True, skip_empty=False):
    """Emit a table: the key columns (key_heads; each key is a tuple of
    strings), then one column per value in cols headed by col_heads[i];
    cell(key, col) -> str. numeric right-aligns the value columns.
    skip_empty leaves out a row whose cells are all "-"."""
    emit("| " + " | ".join(list(key_heads) + list(col_heads)) + " |")
    emit("|" + "---|" * len(key_heads) + ("---:|" if numeric else "---|") * len(cols))
    for key in keys:
        cells = [cell(key, c) for c in cols]
        if skip_empty and all(c == "-" for c in cells):
            continue
        emit("| " + " | ".join(list(key) + cells) + " |")
    emit("")
