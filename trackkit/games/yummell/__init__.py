"""Yummell: modular square tiles, terrain costs, encounters; its rules, content, policies,
engine, exact solver and presets."""
