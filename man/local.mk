# Manual pages, installed and distributed.
dist_man_MANS += man/profview.1 man/profview-formats.5
