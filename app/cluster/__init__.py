"""Several server processes behind one address (docs/scaling.md): each process's id and inbox
(`node`), room ownership by lease (`leases`), writes made only by the owner (`store`), the shared
lobby (`lobby`) and the coordinator that ties them to the room registry (`cluster`)."""
