/**
 * vertx-rpma's codegen module: vertx-codegen wants a {@code @ModuleGen} package above every
 * {@code @DataObject}. It sits here, above {@code dev.rpma.vertx}, so that package's own
 * overview stays free for the API's documentation.
 */
@ModuleGen(name = "vertx-rpma", groupPackage = "dev.rpma")
package dev.rpma;

import io.vertx.codegen.annotations.ModuleGen;
