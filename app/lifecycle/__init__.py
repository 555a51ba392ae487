"""Memory lifecycle: forgetting (archive what decayed, enforce a per-user capacity)."""
