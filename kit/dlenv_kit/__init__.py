"""dlenv validation kit."""
