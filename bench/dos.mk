# bench/dos.mk
