// Server name, version and edition.
CALL dbms.components()
YIELD name, versions, edition
RETURN name, versions, edition
