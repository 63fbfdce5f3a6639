# A plugin module that cannot be imported: the engine must report it and
# go on with the other plugins.
raise RuntimeError("pyraise refuses to be imported")
