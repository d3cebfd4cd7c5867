//! lpm-client: the typed client core for the learning-platform management API.
