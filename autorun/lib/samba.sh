# SPDX-License-Identifier: GPL-2.0
# samba.sh: shell functions for the profiles that run smbd (samba_local,
# samba_cephfs): the [global] section of a standalone server's smb.conf
# and its directories. Sourced into every profile's shell: only function
# definitions here, nothing runs.

# samba_dirs: the directories smbd and smbpasswd use
samba_dirs() {
	mkdir -p /etc/samba /var/lib/samba/private /var/cache/samba /var/log/samba /run/samba /run/lock
}

# samba_global PORT LOG-LEVEL: print the [global] section of a standalone
# server with tdbsam users, listening on TCP PORT only
samba_global() {
	cat <<EOS
[global]
	server role = standalone server
	workgroup = RAPIDO
	netbios name = RAPIDO${RAPIDO_VM}
	security = user
	passdb backend = tdbsam
	map to guest = never
	smb ports = $1
	disable netbios = yes
	load printers = no
	printing = bsd
	printcap name = /dev/null
	disable spoolss = yes
	# CP850 (the default) needs glibc's gconv modules, not in the image
	dos charset = ASCII
	unix charset = UTF-8
	log level = $2
	max log size = 0
EOS
}

# samba_add_user USER PASS CONF: USER (a Unix user already) as a Samba user
samba_add_user() {
	printf '%s\n%s\n' "$2" "$2" | smbpasswd -c "$3" -s -a "$1" > /tmp/smbpasswd.log 2>&1 || {
		cat /tmp/smbpasswd.log >&2
		return 1
	}
}
