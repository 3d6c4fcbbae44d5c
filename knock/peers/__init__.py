"""Other Gin engines in Knock's notation: the mapping of their cards and actions (they are optional extras)."""
