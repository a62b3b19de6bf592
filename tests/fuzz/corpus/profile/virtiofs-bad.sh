#@ description: x
#@ virtiofs: /srv
#@ virtiofs: /:t:ro
