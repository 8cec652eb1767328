# Devices of the project's qemu-system-x86_64: the pc machine and what the
# suites attach to it (pci-bridge is always part of a PCI build).

CONFIG_I440FX=y
CONFIG_SERIAL_ISA=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_SCSI=y
CONFIG_VIRTIO_NET=y
CONFIG_SCSI=y
CONFIG_BROCADE_CB=y
CONFIG_BE2_ISCSI=y
