#@ description: zoned
#@ conf-optional: ZONED_SIZE
#@ conf-type: ZONED_SIZE uint 64-65536
#@ memory-use: ZONED_SIZE 2
#@ memory: 1G
