"""Search over hidden information: ISMCTS over determinized critters views."""
