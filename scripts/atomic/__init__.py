"""The generator of kernel::sync::atomic (scripts/atomic/gen-atomics) and its parts."""
