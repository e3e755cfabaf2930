"""The bundled game content: deck, characters, advantages (data only; reconstructions)."""
