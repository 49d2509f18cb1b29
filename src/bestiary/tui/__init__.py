"""Play and replay in the terminal (Textual): ``bestiary play`` and ``bestiary replay FILE``.

The apps sit on top of the engines and bots: they drive a game through ``apply`` and
``legal_actions`` and show each player only their ``view`` (the replay viewer can also show
everything). Nothing here changes a rule.
"""
