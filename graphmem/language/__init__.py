"""Language rules shared by the write and read paths: what a claim says, in words."""
