"""Style C: a third synthetic note style, written blind, for measuring generalisation only."""
