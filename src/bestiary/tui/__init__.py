"""Play and replay in the terminal (Textual): ``bestiary play`` and ``bestiary replay FILE``.

The apps sit on top of the core driver and the bots: every game is played by
``bestiary.core.driver.Match`` (through ``live.LiveTable``), the human acts through
``Match.submit``, and each player is shown only their ``view`` and the events as the game's
``redact`` gives them (the replay viewer can also show everything). How each game is drawn is
looked up in ``boards.BOARDS``. Nothing here changes a rule or keeps a clock of its own.
"""
