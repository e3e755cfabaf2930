"""The bundled Yummell tile set: data files only (see README.md here)."""
