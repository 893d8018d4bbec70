// Every index with its state and configuration (graphmem doctor, the open() checks).
SHOW INDEXES
YIELD name, type, entityType, labelsOrTypes, properties, state, populationPercent, options
RETURN name, type, entityType, labelsOrTypes, properties, state, populationPercent, options
ORDER BY name
