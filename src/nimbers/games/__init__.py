"""Impartial games: Nim (:mod:`.nim`), the Sprague-Grundy engine and heap games
(:mod:`.grundy`), coin-turning games (:mod:`.turning`) and their products (:mod:`.tartan`)."""
