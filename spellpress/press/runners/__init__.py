"""The runners: what runs builds, once (the command's), again after every edit (watch), or in a
process that stays up (the resident builder).
"""
