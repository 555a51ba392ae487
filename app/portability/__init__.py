"""Export a user's memories as one JSON document, and import such a document into a user."""
