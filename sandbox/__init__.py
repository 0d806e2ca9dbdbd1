"""sandbox: the file system made safe — confinement, atomic writes, faithful text, a blob store."""
