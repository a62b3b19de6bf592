#@ description: USB mass-storage gadget on zram, bound to dummy_hcd, seen by usb-storage; I/O, teardown
#@ bins: cat mkdir rm sleep find sort dd cmp stat readlink blockdev mount
#@ bins-optional: diff dmesg lsscsi
#@ modules: configfs libcomposite usb_f_mass_storage dummy_hcd usb_storage sd_mod zram
#@ helpers: configfs zram
#@ kconfig: CONFIG_CONFIGFS_FS CONFIG_USB_CONFIGFS CONFIG_USB_CONFIGFS_MASS_STORAGE
#@ kconfig: CONFIG_USB_DUMMY_HCD CONFIG_USB_STORAGE CONFIG_BLK_DEV_SD CONFIG_ZRAM
#@ cpus: 1
#@ memory: 1G
