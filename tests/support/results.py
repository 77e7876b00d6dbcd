"""Reading a results database back the way tests compare two runs of the same deals."""
import sqlite3


def stored_rows(db):
    """Every stored deal as (game, settings-relevant fields, seed, verdict, length, nodes)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game, numbering, rules, options, timeout, max_nodes, seed, verdict, "
                            "length, nodes FROM deals ORDER BY game, run_id, seed").fetchall()
