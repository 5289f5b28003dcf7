"""The Preferans engine: deal, auction, talon, whisting, play and raspasy, with bots."""
