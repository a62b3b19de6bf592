#@ description: more memory than any host
#@ memory: 1P
