#@ description: two shares of its own: the second refused
#@ virtiofs: /srv:a
#@ virtiofs: /srv:b:ro
