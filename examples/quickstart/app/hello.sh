#!/bin/sh
# Prints what the image was built from: the lock dlenv put into /opt/dlenv.
echo "quickstart image, built by dlenv from this lock:"
cat /opt/dlenv/dlenv.lock.json
