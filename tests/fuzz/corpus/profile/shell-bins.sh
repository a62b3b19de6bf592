#!/bin/bash
#@ description: x
#@ shell-bins: uname cat rm sleep dmesg
#@ shell-bins: mkfs.ext4 c++ run-parts
#@ shell-bins: /usr/bin/uname
