"""The bundled Snow Tails data: the dog deck and the component counts (data only)."""
