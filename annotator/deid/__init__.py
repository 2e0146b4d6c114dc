"""deid package."""
