#!/usr/bin/env python3
"""make_variant.py NET OUT.tflite TAG: the modelgen network NET with different weights
(every weight seed gets '/TAG' appended), same inputs and outputs. For reload tests."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'modelgen'))
import nets  # noqa: E402

net, out, tag = sys.argv[1:4]
orig = nets.Net._seed
nets.Net._seed = lambda self, what: orig(self, what) + '/' + tag
with open(out, 'wb') as f:
    f.write(nets.build(net))
