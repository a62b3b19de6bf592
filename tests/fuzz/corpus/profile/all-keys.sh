#!/bin/bash
#@ description: x
#@ bins-if KEY: a b
#@ bins-optional-if K2: c
#@ files: ${KEY}/sub:/dest rel:/abs
#@ cpus: 2
#@ memory: 1G
#@ conf: A B
