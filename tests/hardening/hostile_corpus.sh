# hostile_corpus.sh - the hostile text corpus of hostile.sh (sourced).
# Each entry: NAME|RAW|YAML. RAW is printf(1) format (octal escapes: the bytes
# themselves, for command arguments, model answers, UI dumps, file names and
# config values); YAML is the same text as a YAML double-quoted scalar ("-": not
# expressible in YAML, e.g. invalid UTF-8). NUL and the 1 MB line are added by
# hostile.sh where a file can carry them.
HOSTILE='csi|x\033[31mRED\033[0m\033[2J|x\e[31mRED\e[0m\e[2J
osc52|x\033]52;c;SGVsbG8=\007|x\e]52;c;SGVsbG8=\a
dcs|x\033P1$qm\033\\ apc \033_Gdata\033\\|x\eP1$qm\e\\ apc \e_Gdata\e\\
c1csi|x\302\2331;31mC1|x\x9b1;31mC1
c1osc|x\302\23552;c;eA==\302\234|x\x9d52;c;eA==\x9c
rawc1|x\233 31m raw C1 byte|-
bidi|x\342\200\256evil\342\200\254 \342\200\217|x\u202eevil\u202c \u200f
isolate|x\342\201\246in\342\201\251 \342\201\247|x\u2066in\u2069 \u2067
zerowidth|x\342\200\213\342\200\213\342\200\213\342\200\215\342\200\214\357\273\277end|x\u200b\u200b\u200b\u200d\u200c\ufeffend
combining|xa\314\201\314\201\314\201\314\201\314\201\314\201\314\201\314\201\314\201\314\201|xa\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301
overlong|x\300\257 \340\200\257 \355\240\200 \377\376|-
c0|x\010\010\010\007\013\014\015\177del|x\b\b\b\a\v\f\r\x7fdel
wide|x漢字\342\200\256漢|x漢字\u202e漢
html|x<script>alert(1)</script><img src=x onerror=alert(2)>&amp;|x<script>alert(1)</script><img src=x onerror=alert(2)>&amp;'
