"""Word lists behind the 某 and X rules (why a word is here is the labelling rule of docs/commands/check.md:
某 + an entity or quantity word is a placeholder; 某 + a classifier is a determiner)."""

from __future__ import annotations

from collections.abc import Iterable


def _words(text: str) -> list[str]:
    """Word lists are written as space-separated text: one screen, not one line per word."""
    return text.split()


# Simplified -> traditional for the characters of these lists (docs/commands/check.md: traditional script counts as
# simplified does, 某某銀行). Only one-to-one pairs whose traditional form is the usual one in
# these words; pairs that would turn a surname or a common word into another word (余→餘,
# 向→嚮, 了→瞭) are left out. Each list is extended with its traditional spelling at import, so
# matching stays a set probe: nothing is converted at check time.
_PAIRS = (
    "万萬与與专專业業丛叢东東严嚴个個为為义義乐樂乔喬习習乡鄉书書买買于於亚亞产產亩畝亲親亿億仓倉价價众眾会會伟偉传傳体體债債偿償儿兒"
    "党黨兰蘭关關农農冯馮况況刘劉办辦务務劳勞区區医醫华華协協单單卖賣卢盧卫衛厂廠厅廳厦廈县縣发發台臺叶葉号號吕呂吨噸吴吳员員咨諮嘱囑"
    "团團园園围圍国國图圖场場块塊垫墊处處备備奥奧娄婁孙孫学學宁寧宝寶实實审審宫宮宾賓对對导導尔爾层層届屆属屬岁歲岚嵐巩鞏师師广廣庄莊"
    "庆慶库庫应應庞龐开開张張当當总總战戰户戶执執扩擴护護担擔拨撥数數时時显顯术術机機权權条條来來杨楊极極构構标標栋棟样樣栾欒档檔检檢"
    "楼樓欧歐毕畢汤湯涂塗温溫满滿点點独獨环環现現电電监監盘盤码碼种種称稱窦竇签簽简簡类類系係紧緊红紅约約级級纪紀纳納线線经經给給络絡"
    "统統缘緣缪繆网網罗羅聂聶职職联聯胜勝节節芦蘆苏蘇苹蘋荣榮药藥营營蒋蔣蓝藍规規计計订訂议議记記许許设設证證诉訴诊診话話询詢说說请請"
    "诸諸谈談谢謝谭譚负負责責败敗账賬货貨贷貸贸貿费費贺賀贾賈赁賃资資赵趙车車轩軒软軟轴軸轻輕轿轎辆輛辕轅边邊达達违違连連迟遲递遞邓鄧"
    "邝鄺邬鄔邮郵邹鄒邻鄰郑鄭里裡钟鍾钮鈕钱錢银銀铺鋪锐銳镇鎮长長门門闫閆问問间間闵閔闻聞阎閻队隊阳陽阶階陆陸陈陳险險韦韋韩韓项項顾顧"
    "预預领領题題颜顏额額饭飯饮飲饶饒馆館马馬驰馳骁驍骆駱鲁魯鲍鮑鹏鵬麦麥黄黃齐齊龄齡龙龍龚龔"
)
_S2T = str.maketrans(_PAIRS[0::2], _PAIRS[1::2])


def traditional(words: list[str]) -> list[str]:
    """``words`` and their traditional spellings (each once, originals first)."""
    extra = [t for t in (w.translate(_S2T) for w in words) if t not in words]
    return [*words, *dict.fromkeys(extra)]


def traditional_chars(chars: str) -> str:
    return chars + "".join(dict.fromkeys(c for c in chars.translate(_S2T) if c not in chars))


# Common single-character surnames (about the 300 most frequent) and compound surnames.
_SIMPLIFIED_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫阎段雷侯龙史陶黎贺顾"
    "毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰"
    "焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲"
    "房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟"
    "应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝钮杭洪满闻谈宦楚"
)
SURNAMES = traditional_chars(_SIMPLIFIED_SURNAMES + "萧")
COMPOUND_SURNAMES = tuple(
    traditional(
        _words(
            "欧阳 司马 上官 诸葛 东方 皇甫 尉迟 公孙 慕容 令狐 长孙 宇文 司徒 夏侯 轩辕 端木 独孤 南宫 西门 百里 呼延 澹台 申屠"
        )
    )
)

# Surname characters that also end common words (关于, 完成, 说明, 公司, 方向…): after another
# Han character they are taken as a name only when that character is a role word's last one.
AMBIGUOUS_SURNAMES = traditional_chars(
    "于向成时任全文安明常高和方应管查解关金石江康卫车路项单包易施席商连宁司师华党宫费米"
    "农古吉简曲谷苗盛游蓝甘尚符纪梅童毕季柳焦申祝舒冷宗桂仇沙荣郎池麻苑迟满闻谈楚万钱严武温"
    "齐章岳聂鲁边习"
)
# Verbs ending in a surname character that is rarely a word end otherwise: 支付某某元 pays
# 某某元 (not 付某某), 感谢某某律师 thanks 某某律师 (not 谢某某)
VERBS_ENDING_IN_SURNAME = frozenset(
    traditional(
        _words(
            "支付 交付 应付 偿付 垫付 给付 拨付 预付 感谢 致谢 主张 扩张 紧张 夸张 照顾 回顾 兼顾 祝贺 庆贺 道贺 嘱咐 吩咐 告诉 起诉 上诉 投诉 控诉 "
            "胜诉 败诉"
        )
    )
)

# last characters of role words after which a surname + 某 is a name: 原告张某, 证人于某
ROLE_ENDINGS = traditional_chars("告人者士官员师长警友手理生属主户方妻夫子女儿父母兄弟姐妹")

# Classifiers and abstract nouns after which 某 is a determiner (某些, 某种, 某一, 某个…).
DETERMINER_NEXT = tuple(
    traditional(
        _words(
            "些 种 一 个 位 次 类 样 方面 部分 程度 项 件 处 天 时 段 点 刻 阶段 角度 层面 意义 范围 条件 情况 原因 方式 领域 环节 瞬间 片 句"
        )
    )
)

# Entity and quantity words after 某 / 某某 / X that make a placeholder (某公司, 某元, XX元).
# Longer words first so the span takes the whole word (某有限公司, not 某有).
ENTITY_WORDS = sorted(
    set(
        traditional(
            _words(
                "有限责任公司 股份有限公司 有限公司 分公司 子公司 总公司 集团公司 公司 集团 企业 银行 支行 分行 单位 机构 部门 医院 卫生院 诊所 学校 大学 "
                "学院 中学 小学 幼儿园 法院 人民法院 检察院 人民检察院 派出所 公安局 公安分局 律师事务所 事务所 律所 株式会社 合同会社 有限会社 町 丁目 様 工厂 厂 商店 "
                "店 超市 商场 酒店 饭店 餐厅 宾馆 平台 网站 协会 基金会 合作社 委员会 政府 街道办 办事处 中心 研究所 研究院 工作室 俱乐部 科技 贸易 实业 "
                "投资 控股 建设 物业 地产 房地产 保险 证券 信托 租赁 网络 传媒 文化 教育 咨询 物流 快递 外卖 酒吧 网吧 微信群 直播间 小程序 省 市 县 区 "
                "镇 乡 村 街道 街 路 巷 弄 号楼 号 小区 大厦 栋 幢 单元 室 广场 园区 开发区 新区 国 州 地 局 厅 科 站 队 部 院 委 厂区 社区 人 "
                "男 女 总部 车间 仓库 工地 地点 地方 场所 项目部 科室 校区 支队 大队 中队 网店 公众号 餐馆 饭馆 商户 楼 车 总 男子 女子 先生 女士 小姐 "
                "同志 员工 职工 工人 经理 总经理 董事长 董事 总监 主管 律师 法官 检察官 警官 民警 老师 教师 医生 护士 学生 当事人 原告 被告 被告人 申请人 "
                "被申请人 上诉人 被上诉人 第三人 犯罪嫌疑人 嫌疑人 证人 代理人 法定代表人 负责人 联系人 客户 用户 患者 买方 卖方 甲方 乙方 丙方 业主 租户 "
                "承租人 出租人 借款人 出借人 贷款人 担保人 保证人 债务人 债权人 村民 居民 网友 司机 股东 工程师 会计 出纳 记者 专家 官员 领导 局长 科长 "
                "处长 主任 书记 村长 镇长 市长 县长 省长 校长 院长 老板 医师 法人 自然人 公民 家属 亲属 朋友 同事 邻居 元 万元 亿元 千元 百元 美元 欧元 "
                "港元 块 万 亿 千 百 年 月 日 号 周 季度 个月 小时 分钟 秒 米 千米 公里 平方米 亩 吨 千克 公斤 斤 岁 倍 股 % ％ 产品 商品 品牌 "
                "型号 项目 工程 合同 协议 文件 账户 账号 银行卡 卡号 号码 电话 手机 手机号 车牌 车牌号 车辆 房屋 房产 土地 案件 案 证书 执照 软件 系统 "
                "药品 设备 货物 材料 网点 门店 楼盘 地址 住址 邮箱 金额 数额 日期"
            )
        )
    ),
    key=lambda w: (-len(w), w),
)

# brands and words before an X + digits that make it a product model (宝马X5, 小鹏X9)
MODEL_BRANDS = tuple(
    _words(
        "宝马 华晨宝马 特斯拉 小鹏 小米 红米 华为 荣耀 一加 魅族 联想 戴尔 索尼 富士 佳能 尼康 理想 问界 极氪 领克 蔚来 奔驰 奥迪 大众 丰田 本田 "
        "日产 现代 起亚 福特 吉利 长安 长城 哈弗 传祺 比亚迪 零跑 哪吒 岚图 坦克 三星 苹果 微软 英伟达 英特尔 锐龙 骁龙 型号 车型 机型 款 代 "
        "系列"
    )
)
# words after an X (or X + digits) that make it a thing, not a slot: X光, X射线, X5车型
X_THING_NEXT = tuple(
    traditional(
        _words(
            "光 片 射线 线 轴 服务器 主机 染色体 型 形 战警 档案 因素 字 平台 世代 一代 代 世纪 坐标 方向 车型 系列 手机 汽车 轿车 芯片 "
            "显卡 处理器 架构 相机 机型 版 款"
        )
    )
)


def any_word(words: Iterable[str]) -> str:
    """A regex matching any of ``words`` (escaped), arranged so that re rejects a position in
    one or two class tests: the one-character words as a class, the longer ones behind a class
    of their first characters (re tries an alternation's branches one by one; inside a
    lookahead at every 某 or X that was most of a rule's scan time)."""
    import re

    words = sorted(set(words), key=lambda w: (-len(w), w))
    singles = "".join(re.escape(w) for w in words if len(w) == 1)
    longer = [re.escape(w) for w in words if len(w) > 1]
    firsts = "".join(sorted({re.escape(w[0]) for w in words if len(w) > 1}))
    parts = []
    if singles:
        parts.append(f"[{singles}]")
    if longer:
        parts.append(f"(?=[{firsts}])(?:{'|'.join(longer)})")
    return "(?:" + "|".join(parts) + ")" if parts else "(?!)"


class WordIndex:
    """A word list probed at a position: the words are grouped by their first (or last)
    character, so a position where no word starts costs one dict lookup, and one that does
    costs one slice per length of the words starting with that character.

    Set probes instead of a regex alternation of the list: compiling a 300-word alternation
    costs tens of milliseconds at every start. Probed longest first.
    """

    def __init__(self, words: Iterable[str], *, min_len: int = 1) -> None:
        self.words = frozenset(w for w in words if len(w) >= min_len)
        starting: dict[str, set[int]] = {}
        ending: dict[str, set[int]] = {}
        for w in self.words:
            starting.setdefault(w[0], set()).add(len(w))
            ending.setdefault(w[-1], set()).add(len(w))
        self._starting = {ch: sorted(ns, reverse=True) for ch, ns in starting.items()}
        self._ending = {ch: sorted(ns, reverse=True) for ch, ns in ending.items()}

    def longest_at(self, text: str, pos: int) -> int:
        """Length of the longest word starting at ``pos``, or 0."""
        for n in self._starting.get(text[pos : pos + 1], ()):
            word = text[pos : pos + n]
            if len(word) == n and word in self.words:
                return n
        return 0

    def longest_before(self, text: str, pos: int) -> int:
        """Length of the longest word ending just before ``pos``, or 0."""
        if pos <= 0:
            return 0
        for n in self._ending.get(text[pos - 1], ()):
            if n <= pos and text[pos - n : pos] in self.words:
                return n
        return 0


_ENTITIES = WordIndex(ENTITY_WORDS)
DETERMINERS = WordIndex(DETERMINER_NEXT)


# Words that continue an organisation or place name after its first word (某科技公司,
# 某某物业服务有限公司, 某市人民政府). Only these: a single character or a role after the name
# starts another word (某小区地下车库, 某律师事务所律师, 某市人民法院 but not 某市人).
CHAIN_WORDS = frozenset(
    traditional(
        _words(
            "有限责任公司 股份有限公司 有限公司 分公司 子公司 总公司 集团公司 公司 集团 企业 银行 支行 分行 营业部 医院 人民医院 卫生院 法院 人民法院 "
            "中级人民法院 检察院 人民检察院 派出所 公安局 公安分局 分局 律师事务所 事务所 政府 人民政府 委员会 街道办 办事处 中心 研究所 研究院 科技 贸易 "
            "实业 投资 控股 建设 物业 地产 房地产 保险 证券 信托 租赁 网络 传媒 文化 教育 咨询 物流 快递 外卖 平台 大学 学院 学校 中学 小学 服务 "
            "管理 发展 技术 信息 电子 工程 商贸 餐饮 酒店 株式会社 合同会社 有限会社 中介 代理 销售 制造 置业"
        )
    )
)
_CHAINS = WordIndex(CHAIN_WORDS, min_len=2)


def entity_end(text: str, pos: int, chain: int = 3) -> int:
    """End of the longest entity/quantity word starting at ``pos``, or -1.

    Up to ``chain`` words of :data:`CHAIN_WORDS` right after it are taken too, so a compound
    name is one span: 某科技公司, XX银行支行, 某某物业服务有限公司.
    """
    n = _ENTITIES.longest_at(text, pos)
    if n == 1 and text[pos : pos + 2] == "人民":
        return -1  # 张某人民币: 人 starts 人民币, not 某人 (and no longer entity starts with 人民)
    return _chain_end(text, pos + n, chain) if n else -1


def _chain_end(text: str, end: int, chain: int) -> int:
    while chain:
        n = _CHAINS.longest_at(text, end)
        if not n:
            return end
        end += n
        chain -= 1
    return end


def determiner_at(text: str, pos: int) -> bool:
    """Whether a classifier/abstract noun that makes 某 a determiner starts at ``pos``."""
    return DETERMINERS.longest_at(text, pos) > 0


# Titles: after a surname + 某 they belong to the name (张某律师, 李某某经理), so the name is
# the placeholder, not 某律师.
PERSON_WORDS = frozenset(
    traditional(
        _words(
            "先生 女士 小姐 同志 经理 总经理 总 董事长 董事 总监 主管 律师 法官 检察官 警官 民警 老师 教师 医生 护士 医师 工程师 会计 出纳 记者 专家 "
            "主任 书记 局长 科长 处长 校长 院长 村长 镇长 市长 县长 省长 老板"
        )
    )
)

# Party roles: after a surname + 某 they start the next party (甲方张某乙方李某), so the name is
# the placeholder, not 某乙方.
ROLE_WORDS = frozenset(
    traditional(
        _words(
            "原告 被告 被告人 第三人 申请人 被申请人 上诉人 被上诉人 甲方 乙方 丙方 买方 卖方 出租人 承租人 借款人 出借人 贷款人 担保人 "
            "保证人 债务人 债权人 证人 代理人 当事人 犯罪嫌疑人 嫌疑人 法定代表人 负责人 联系人 被害人 受害人 委托人 受托人 股东 业主"
        )
    )
)


def role_word_end(text: str, pos: int) -> int:
    """End of a party role word starting at ``pos``, or -1."""
    for n in (5, 4, 3, 2):
        if text[pos : pos + n] in ROLE_WORDS:
            return pos + n
    return -1


# Organisation words a modifier may stand before (某中介公司, 某大型超市, 某市第一医院), and
# characters a modifier never holds: they start a clause (某公司在北京, 某人到医院).
ORG_HEADS = frozenset(
    traditional(
        _words(
            "公司 有限公司 有限责任公司 股份有限公司 集团 银行 支行 分行 医院 学校 大学 学院 中学 小学 幼儿园 法院 检察院 派出所 公安局 事务所 "
            "律师事务所 酒店 饭店 餐厅 超市 商场 商店 工厂 平台 网站 中心 协会 机构 单位 企业 小区 大厦 广场 门店 店 厂"
        )
    )
)
_ORGS = WordIndex(ORG_HEADS)
_NOT_MODIFIER = frozenset(
    traditional_chars(
        "的地得了在于与和及或向对从把被给将到是为由以并而也都就又等某些个这那其之所已曾再应该可能会要想说称去来"
    )
)


def modified_entity_end(text: str, pos: int, most: int = 4) -> int:
    """End of up to ``most`` modifier characters and an organisation word at ``pos``, or -1."""
    for k in range(1, most + 1):
        ch = text[pos + k - 1 : pos + k]
        if not ("\u4e00" <= ch <= "\u9fff") or ch in _NOT_MODIFIER:
            return -1
        at = pos + k
        n = _ORGS.longest_at(text, at)
        if n:
            return _chain_end(text, at + n, 3)
    return -1


def person_word_end(text: str, pos: int) -> int:
    """End of a person/title word starting at ``pos``, or -1."""
    for n in (3, 2, 1):
        if text[pos : pos + n] in PERSON_WORDS:
            return pos + n
    return -1
