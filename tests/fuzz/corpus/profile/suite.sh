#@ description: a suite
#@ conf-optional: LTP_SRC LTP_DIR
#@ suite: LTP_SRC/LTP_DIR LTP: a shell; ./vm --batch fails naming the key
