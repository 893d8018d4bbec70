// The namespace's entities, sessions and turns: a forget counts them before and after itself.
RETURN COUNT { MATCH (e:Entity {namespace: $namespace}) } AS entities,
       COUNT { MATCH (s:Session {namespace: $namespace}) } AS sessions,
       COUNT { MATCH (t:Turn {namespace: $namespace}) } AS turns
