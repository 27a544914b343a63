#!/usr/bin/env python3
"""Writes the charset test pages in this folder: known text encoded with Python's codecs.

Run from this folder: python3 generate.py. The output is deterministic; the tests in
Tests/MarkupTests/CharsetDecoderTests.swift compare the decoded text with the strings below.
"""

PAGES = [
    # (file, Python codec, declaration in the page or None, body text)
    ("shift_jis.html", "shift_jis", '<meta charset="Shift_JIS">', "日本語のテキスト、東京都。カタカナ ｶﾀｶﾅ"),
    ("euc-jp.html", "euc_jp", '<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">', "日本語のページ"),
    ("euc-kr.html", "euc_kr", None, "한국어 텍스트입니다"),
    ("gb18030.html", "gb18030", "<meta charset=gb18030>", "简体中文文本，€ 和 𠀀"),
    ("gbk.html", "gbk", "<meta charset=gb2312>", "简体中文网页"),
    ("windows-1251.html", "cp1251", "<meta charset='windows-1251'>", "Привет, мир! «Ёлка» — №5"),
    ("iso-8859-2.html", "iso8859_2", '<meta charset="ISO-8859-2">', "Zażółć gęślą jaźń. Żluťoučký kůň"),
    ("koi8-r.html", "koi8_r", '<meta charset="koi8-r">', "Съешь же ещё этих мягких булок"),
]

for name, codec, declaration, text in PAGES:
    head = f"<!DOCTYPE html>\n<html><head>{declaration or ''}<title>t</title></head>\n"
    page = head.encode("ascii") + f"<body><p>{text}</p></body></html>\n".encode(codec)
    with open(name, "wb") as out:
        out.write(page)
