#!/bin/bash
# Tools that read their configuration from Debian's /etc (issue 14, item 1, like Java
# and Maven in c_java): fontconfig lists the same fonts, man finds the same page.
. "$(dirname "$0")/lib.sh"

w="fc-list : family"
c_have fc-list "$w" && c_same "$w" 'fc-list : family | sort' all
w="man -w ls"
c_have man "$w" && c_same "$w" 'man -w ls' all
