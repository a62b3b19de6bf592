#!/bin/bash
#@ description: x
#@ bins-if: x
#@ bogus: 1
