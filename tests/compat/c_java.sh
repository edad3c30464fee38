#!/bin/bash
# Java and Maven (issue 14, item 1): Debian keeps their configuration under /etc
# behind /usr -> /etc symlinks, which dangled in the jail's minimal /etc.  A class that
# uses the security providers (java.security) compiled and run, and mvn -v (m2.conf),
# compared with the same outside.
. "$(dirname "$0")/lib.sh"

hello='public class Hello {
	public static void main(String[] a) throws Exception {
		java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
		System.out.println("hello " + d.digest("x".getBytes()).length + " java " + System.getProperty("java.version"));
	}
}'
for who in root user; do
	printf '%s\n' "$hello" >"$(c_ws $who)/Hello.java"
done
chown -R "$C_UID:$C_UID" "$(c_ws user)"

w="javac + java (SHA-256 via java.security)"
if c_have javac "$w" && c_have java "$w"; then
	# shellcheck disable=SC2016
	c_same "$w" 'rm -f Hello.class; javac Hello.java && java Hello; rc=$?; rm -f Hello.class; exit $rc'
fi

# mvn -v colours its first line whatever -B says: the codes are taken out.
w="mvn -B -v"
if c_have mvn "$w"; then
	# shellcheck disable=SC2016
	c_same "$w" 'mvn -B -v >mvn.out; rc=$?; sed "s/$(printf "\\033")\\[[0-9;]*m//g" mvn.out; rm -f mvn.out; exit $rc' all
fi
