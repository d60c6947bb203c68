#include "atlas_directory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace rematlens {

namespace {

// The source tree is only where a build tree's program finds its maps: an installed program
// must never read a checkout that happens to sit where it was built.
bool runsFromBuildTree()
{
    const QString build = QDir::cleanPath(QStringLiteral(REMATLENS_BUILD_DIR));
    const QString program = QDir::cleanPath(QCoreApplication::applicationDirPath());
    return program == build || program.startsWith(build + QLatin1Char('/'));
}

} // namespace

QString atlasDirectory()
{
    if (qEnvironmentVariableIsSet("REMATLENS_ATLAS_DIR"))
        return qEnvironmentVariable("REMATLENS_ATLAS_DIR");
    const QString installed =
        QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/rematlens/atlas"));
    if (QFileInfo(installed).isDir())
        return installed;
    const QString source = QStringLiteral(REMATLENS_SOURCE_ATLAS_DIR);
    if (runsFromBuildTree() && QFileInfo(source).isDir())
        return source;
    return {};
}

} // namespace rematlens
