print("locwire")
