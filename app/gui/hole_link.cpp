#include "hole_link.h"

#include <QUrlQuery>

namespace rematlens {

namespace {

const QString kScheme = QStringLiteral("hole");

QString kindName(HoleLink::Kind kind)
{
    switch (kind) {
    case HoleLink::Kind::Step:
        return QStringLiteral("step");
    case HoleLink::Kind::Tensor:
        return QStringLiteral("tensor");
    case HoleLink::Kind::Budget:
        return QStringLiteral("budget");
    }
    return {};
}

QString edgeName(HoleStoryWriter::Edge edge)
{
    switch (edge) {
    case HoleStoryWriter::Edge::Given:
        return QStringLiteral("given");
    case HoleStoryWriter::Edge::Lower:
        return QStringLiteral("lower");
    case HoleStoryWriter::Edge::Upper:
        return QStringLiteral("upper");
    }
    return {};
}

} // namespace

QUrl HoleLink::url() const
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("edge"), edgeName(edge));
    if (step)
        query.addQueryItem(QStringLiteral("step"), QString::number(*step));
    if (tensor)
        query.addQueryItem(QStringLiteral("tensor"), QString::number(*tensor));
    if (kind == Kind::Budget)
        query.addQueryItem(QStringLiteral("budget"), QString::number(budget));
    QUrl url;
    url.setScheme(kScheme);
    url.setPath(kindName(kind));
    url.setQuery(query);
    return url;
}

std::optional<HoleLink> HoleLink::parse(const QUrl &url)
{
    if (url.scheme() != kScheme)
        return std::nullopt;
    HoleLink link;
    bool known = false;
    for (Kind kind : {Kind::Step, Kind::Tensor, Kind::Budget})
        if (url.path() == kindName(kind)) {
            link.kind = kind;
            known = true;
        }
    const QUrlQuery query(url);
    bool edgeKnown = false;
    for (auto edge : {HoleStoryWriter::Edge::Given, HoleStoryWriter::Edge::Lower, HoleStoryWriter::Edge::Upper})
        if (query.queryItemValue(QStringLiteral("edge")) == edgeName(edge)) {
            link.edge = edge;
            edgeKnown = true;
        }
    if (!known || !edgeKnown)
        return std::nullopt;
    bool ok = false;
    if (const QString step = query.queryItemValue(QStringLiteral("step")); !step.isEmpty())
        if (const uint value = step.toUInt(&ok); ok)
            link.step = value;
    if (const QString tensor = query.queryItemValue(QStringLiteral("tensor")); !tensor.isEmpty())
        if (const uint value = tensor.toUInt(&ok); ok)
            link.tensor = value;
    link.budget = query.queryItemValue(QStringLiteral("budget")).toLongLong();
    if ((link.kind == Kind::Step && !link.step) || (link.kind == Kind::Tensor && !link.tensor))
        return std::nullopt;
    return link;
}

} // namespace rematlens
