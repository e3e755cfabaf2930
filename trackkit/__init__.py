"""trackkit: design, validate and analyse race tracks for Yummell."""
