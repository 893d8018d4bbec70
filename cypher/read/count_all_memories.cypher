// Memories in the database, every namespace (from the count store: constant time). The vector
// index holds them all, so a namespace's share of them sets how far a search over-fetches.
MATCH (m:Memory)
RETURN count(m) AS count
