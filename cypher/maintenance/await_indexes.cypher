// Wait until every index is online (index population is asynchronous).
CALL db.awaitIndexes($timeout_s)
