#@ description: two suites
#@ conf-optional: S
#@ suite: S a: b
#@ suite: S/ c:
#@ suite: /S :
